"""Settings every test shares (here at the root: loaded before pytest collects any module)."""
import os

# As the product sets it (maamut/__init__.py), before numpy or OpenCV load OpenBLAS:
# with more threads, readings were not repeatable from one run to the next.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
