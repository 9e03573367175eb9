"""The simulation: rendered camera frames, bots, simulated players and cameras, and the
benchmark-only code that uses them.

Product code (``engine``, ``session``, ``vision``, ``firmware_bridge``,
``companion_web``) never imports this package; only ``maamut demo`` and the benchmarks
do. A simulated camera is one more frame source for the product's camera loop, the way
gpiozero's MockFactory is one more pin factory.
"""
