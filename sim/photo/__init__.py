"""Path-traced test frames of a physical Mâamut set (Blender's Cycles through ``bpy``).

Our flat renderer (:mod:`sim.render`) draws tokens in the table's plane to the kit's
own geometry. This package builds a 3D table instead: hex-prism tiles with printed-art
textures, hand-laid marker cards, standing pawns and meeples, a mammoth figure, trap
tokens of several shapes, lamps with soft shadows and hotspots, a tilted camera.

``bpy`` is optional (``pip install -e .[photo]``): only :mod:`sim.photo.blender` imports
it, and only when called. The frames kept in the repository
(``tests/vision/data/photo/``) are read by :mod:`sim.photo.bench` and the tests
without Blender.
"""
