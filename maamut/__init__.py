"""The ``maamut`` command line: one entry point in front of every part of the product."""
import os

#: OpenBLAS threads, set before numpy or OpenCV load it. OpenCV's LAPACK is a bundled
#: OpenBLAS; across threads, its small solves in the setup's tile alignment
#: (``cv2.findTransformECC``) varied in their last bits from run to run. The same setup
#: frames were then learnt two ways, and a reading could differ. A referee needs the same
#: reading twice (docs/vision.md, sessions 33 and 34). A limit set after loading
#: (threadpoolctl) was not enough: runs alternated between two results.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
