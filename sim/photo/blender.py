"""Build and path-trace one photographed table with Blender (``bpy``, Cycles, CPU).

Units: one Blender unit is one tile circumradius (about 2.5 cm at the table). Board
``x`` is east and ``y`` south as seen from above (see :mod:`vision.geometry`); Blender's
``Y`` is north, so a board point ``(x, y)`` is at ``(x, -y, z)``.

Nothing here is imported unless a frame is rendered: ``bpy`` is an optional extra.
"""
from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.hexgrid import NUM_CELLS
from vision.geometry import (ARUCO_DICTIONARY, BOARD_RADIUS, CELL_CENTRES, MARKER_IDS, MARKER_QUIET, MARKER_SIZE,
                             marker_centre)

IMAGE_SIZE = (1280, 960)
TILE_RADIUS = 0.95          # gaps between the tiles
TILE_HEIGHT = 0.08
BOARD_HEIGHT = 0.10
CARD_HEIGHT = 0.012
HUNTER_KINDS = ("kit_disc", "pawn", "meeple", "wood_disc", "figure")
MAMMOTH_KINDS = ("figure", "token")
TRAP_KINDS = ("disc", "square", "ring")


@dataclass
class PhotoLook:
    """Everything random about one table that stays for its whole game."""
    grass: tuple
    snow: tuple
    rock: tuple
    cross_mark: tuple
    cross_shape: str           # "plus" or "x"
    board: tuple
    table: tuple
    mammoth: tuple
    rim: tuple                 # the kit discs' outline
    players: list
    hunter_kind: str
    trap_kind: str
    card_offsets: list         # per marker: (dx, dy, dangle) in board units / radians
    camera: dict               # tilt, azimuth, roll (radians), distance, shift
    lamps: list                # dicts: position (board xyz), size, power, colour
    ambient: float
    seed: int = 0
    extra: dict = field(default_factory=dict)
    mammoth_kind: str = "figure"   # a standing figure, or a flat printed token

    def to_json(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def _hsv(h, s, v):
    import colorsys
    return tuple(float(x) for x in colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0), 1), min(max(v, 0), 1)))


def random_photo_look(rng: np.random.Generator, max_tilt_deg: float = 22.0, card_jitter: float = 0.04,
                      hunter_kinds=HUNTER_KINDS, trap_kinds=TRAP_KINDS) -> PhotoLook:
    """A random set (palette, pieces), card placement, camera and lamps.

    >>> look = random_photo_look(np.random.default_rng(1))
    >>> look.hunter_kind in HUNTER_KINDS, len(look.players), len(look.card_offsets)
    (True, 4, 6)
    """
    from sim.render_palette import delta_e
    for _ in range(500):
        grass = _hsv(rng.uniform(0.17, 0.40), rng.uniform(0.35, 0.75), rng.uniform(0.35, 0.65))
        snow = _hsv(rng.uniform(0.5, 0.7), rng.uniform(0.0, 0.10), rng.uniform(0.80, 0.92))
        rock = _hsv(rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.25), rng.uniform(0.22, 0.40))
        mammoth = _hsv(rng.uniform(0.03, 0.10), rng.uniform(0.45, 0.75), rng.uniform(0.30, 0.50))
        base = rng.uniform(0, 1)
        players = [_hsv(base + 0.25 * k + rng.uniform(-0.03, 0.03), rng.uniform(0.7, 1.0), rng.uniform(0.7, 0.95))
                   for k in rng.permutation(4)]
        tiles = (grass, snow, rock)
        if min(delta_e(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]) < 30:
            continue
        if min(delta_e(mammoth, t) for t in tiles) < 18:
            continue
        if min(delta_e(p, o) for p in players for o in list(tiles) + [mammoth]) < 25:
            continue
        if min(delta_e(a, b) for i, a in enumerate(players) for b in players[i + 1:]) < 25:
            continue
        break
    tilt = math.radians(rng.uniform(0, max_tilt_deg))
    lamps = [{"position": (float(rng.uniform(-8, 8)), float(rng.uniform(-8, 8)), float(rng.uniform(14, 24))),
              "size": float(rng.uniform(2, 6)), "power": float(rng.uniform(0.8, 1.3)),
              "colour": _hsv(rng.uniform(0.05, 0.15), rng.uniform(0, 0.25), 1.0)}]
    if rng.random() < 0.5:   # a second, nearer lamp: a hotspot
        lamps.append({"position": (float(rng.uniform(-10, 10)), float(rng.uniform(-10, 10)), float(rng.uniform(8, 14))),
                      "size": float(rng.uniform(0.5, 2)), "power": float(rng.uniform(0.15, 0.4)),
                      "colour": _hsv(rng.uniform(0.0, 0.6), rng.uniform(0, 0.15), 1.0)})
    return PhotoLook(
        grass=grass, snow=snow, rock=rock,
        cross_mark=_hsv(rng.uniform(0, 1), rng.uniform(0.3, 0.8), rng.uniform(0.2, 0.5)),
        cross_shape=str(rng.choice(["plus", "x"])),
        board=_hsv(rng.uniform(0, 1), rng.uniform(0.0, 0.5), rng.uniform(0.12, 0.3)),
        table=_hsv(rng.uniform(0, 1), rng.uniform(0.1, 0.6), rng.uniform(0.25, 0.7)),
        mammoth=mammoth,
        rim=_hsv(rng.uniform(0, 1), rng.uniform(0, 0.3), rng.uniform(0.03, 0.12)),
        players=players,
        hunter_kind=str(rng.choice(list(hunter_kinds))),
        trap_kind=str(rng.choice(list(trap_kinds))),
        card_offsets=[(float(rng.uniform(-card_jitter, card_jitter)), float(rng.uniform(-card_jitter, card_jitter)),
                       float(math.radians(rng.uniform(-2.0, 2.0)))) for _ in MARKER_IDS],
        camera={"tilt": tilt, "azimuth": float(rng.uniform(0, 2 * math.pi)), "roll": float(rng.uniform(0, 2 * math.pi)),
                "fill": float(rng.uniform(0.80, 0.92)), "shift": (float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3))),
                "lens": float(rng.choice([35.0, float(rng.uniform(14.0, 35.0))]))},
        lamps=lamps, ambient=float(rng.uniform(0.15, 0.35)),
        mammoth_kind=str(rng.choice(list(MAMMOTH_KINDS))),
    )


@dataclass
class Placement:
    """Where each piece physically stands (board units); ``cell`` is the truth."""
    kind: str                  # "mammoth", "hunter", "trap"
    cell: int
    x: float
    y: float
    angle: float
    owner: str | None = None


def place_pieces(scene, rng: np.random.Generator, jitter: float = 0.08) -> list[Placement]:
    """Physical placements for a board state (:class:`sim.render.Scene`)."""
    out = []
    def jit():
        return rng.uniform(-jitter, jitter, 2)
    for cell, owner in sorted(scene.traps.items()):
        dx, dy = jit()
        out.append(Placement("trap", cell, CELL_CENTRES[cell][0] + dx, CELL_CENTRES[cell][1] + dy,
                             float(rng.uniform(0, 2 * math.pi)), owner))
    if scene.mammoth is not None:
        dx, dy = jit()
        out.append(Placement("mammoth", scene.mammoth, CELL_CENTRES[scene.mammoth][0] + dx,
                             CELL_CENTRES[scene.mammoth][1] + dy, float(rng.uniform(0, 2 * math.pi))))
    for label, cell in sorted(scene.hunters.items()):
        dx, dy = jit()
        out.append(Placement("hunter", cell, CELL_CENTRES[cell][0] + dx, CELL_CENTRES[cell][1] + dy,
                             float(rng.uniform(0, 2 * math.pi)), label))
    return out


@dataclass
class PhotoHand:
    """A forearm and hand reaching over the board from a table edge (board units).

    ``target`` is the board point under the fingertips, ``height`` the palm's height
    above the tiles (3-12 cm is 1.2-4.8 units), ``heading`` the direction (radians,
    board frame) from the target back to the player's elbow. ``holding`` is a player's
    label whose hunter is pinched under the fingers, or None.
    """
    target: tuple
    height: float
    heading: float
    skin: tuple
    sleeve: tuple | None
    spread: float = 0.15       # radians between neighbouring fingers
    curl: float = 0.35         # radians the fingers bend down
    holding: str | None = None

    def to_json(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def random_photo_hand(rng: np.random.Generator, cell: int, holding: str | None = None) -> PhotoHand:
    """A hand over ``cell`` (a little off its centre), reaching in from any edge.

    >>> hand = random_photo_hand(np.random.default_rng(3), 0)
    >>> 1.2 <= hand.height <= 4.8, hand.holding
    (True, None)
    """
    tone = rng.uniform(0.25, 0.95)
    skin = (tone, tone * rng.uniform(0.62, 0.8), tone * rng.uniform(0.48, 0.68))
    sleeve = _hsv(rng.uniform(0, 1), rng.uniform(0, 0.8), rng.uniform(0.08, 0.9)) if rng.random() < 0.7 else None
    x, y = CELL_CENTRES[cell] + rng.uniform(-0.4, 0.4, 2)
    # From the edge nearest to the cell, give or take: people reach in from their seat.
    outward = math.atan2(y, x) if abs(x) + abs(y) > 1 else rng.uniform(0, 2 * math.pi)
    heading = outward + rng.uniform(-0.9, 0.9)
    height = rng.uniform(2.2, 4.8) if holding is None else rng.uniform(1.2, 2.0)
    return PhotoHand((float(x), float(y)), float(height), float(heading), tuple(float(v) for v in skin),
                     sleeve, float(rng.uniform(0.08, 0.22)), float(rng.uniform(0.15, 0.6)), holding)


def hand_segments(hand: PhotoHand, top: float = BOARD_HEIGHT + TILE_HEIGHT) -> list[tuple]:
    """The hand as ``(kind, start, end, radius)`` pieces in board coordinates (x, y, z).

    Palm and fingers are flattened ellipsoids (``"palm"``, ``"finger"``), the forearm and
    sleeve cylinders; the forearm rises towards the elbow at the table's edge.

    >>> parts = hand_segments(PhotoHand((0.0, 0.0), 3.0, 0.0, (0.8, 0.6, 0.5), None))
    >>> sorted({kind for kind, *_ in parts})
    ['finger', 'forearm', 'palm']
    """
    d = np.array([math.cos(hand.heading), math.sin(hand.heading), 0.0])   # towards the elbow
    side = np.array([-d[1], d[0], 0.0])
    up = np.array([0.0, 0.0, 1.0])
    tip = np.array([hand.target[0], hand.target[1], top + hand.height])
    palm_centre = tip + d * 3.6 + up * 0.35
    wrist = palm_centre + d * 1.9 + up * 0.25
    elbow = wrist + d * 10.0 + up * 3.5
    parts = [("palm", palm_centre - d * 1.8, palm_centre + d * 1.8, 1.65)]
    knuckles = palm_centre - d * 1.6
    for k, (length, offset) in enumerate(((2.6, -1.15), (3.0, -0.4), (3.1, 0.4), (2.8, 1.15))):
        angle = (k - 1.5) * hand.spread
        along = -(d * math.cos(angle) + side * math.sin(angle))
        base = knuckles + side * offset
        end = base + along * length * math.cos(hand.curl) - up * length * math.sin(hand.curl)
        parts.append(("finger", base, end, 0.34))
    thumb_base = palm_centre + side * 1.4 - d * 0.2
    thumb_dir = -(d * 0.7) + side * 0.7
    parts.append(("finger", thumb_base, thumb_base + thumb_dir * 2.4 - up * 0.5, 0.4))
    parts.append(("forearm", wrist, elbow, 1.15))
    if hand.sleeve is not None:
        cuff = wrist + (elbow - wrist) * 0.35
        parts.append(("sleeve", cuff, elbow + (elbow - wrist) * 0.3, 1.5))
    return parts


# --- Blender --------------------------------------------------------------------------

class BlenderScene:
    """One Blender scene for one table; pieces are rebuilt for every frame."""

    def __init__(self, look: PhotoLook, tiles: tuple, samples: int = 16, threads: int = 2):
        import bpy
        self.bpy = bpy
        self.look = look
        self.tiles = tiles
        self._tmp = tempfile.mkdtemp(prefix="maamut-photo-")
        bpy.ops.wm.read_factory_settings(use_empty=True)
        scene = bpy.context.scene
        scene.render.engine = "CYCLES"
        scene.cycles.device = "CPU"
        scene.cycles.samples = samples
        scene.cycles.use_adaptive_sampling = True
        scene.cycles.use_denoising = True
        try:
            scene.cycles.denoiser = "OPENIMAGEDENOISE"
        except TypeError:
            pass
        scene.cycles.max_bounces = 3
        scene.cycles.diffuse_bounces = 2
        scene.cycles.glossy_bounces = 1
        scene.cycles.transmission_bounces = 0
        scene.cycles.caustics_reflective = scene.cycles.caustics_refractive = False
        scene.render.threads_mode = "FIXED"
        scene.render.threads = threads
        scene.render.resolution_x, scene.render.resolution_y = IMAGE_SIZE
        scene.render.resolution_percentage = 100
        scene.view_settings.view_transform = "Standard"
        scene.render.image_settings.file_format = "JPEG"
        scene.render.image_settings.quality = 90
        world = bpy.data.worlds.new("world")
        world.use_nodes = True
        world.node_tree.nodes["Background"].inputs["Color"].default_value = (1, 1, 1, 1)
        world.node_tree.nodes["Background"].inputs["Strength"].default_value = look.ambient
        scene.world = world
        self.scene = scene
        self.static = []
        self._materials = {}
        self._build_static()
        self.pieces = []

    # -- materials -----------------------------------------------------------------------
    def _material(self, name, colour, roughness=0.6, art=0.0, linen=0.0, image=None, dark_detail=0.0):
        """A printed-cardboard or painted material: flat colour, optional procedural art."""
        bpy = self.bpy
        mat = bpy.data.materials.new(name)
        mat.use_nodes = True
        nodes, links = mat.node_tree.nodes, mat.node_tree.links
        bsdf = nodes["Principled BSDF"]
        bsdf.inputs["Roughness"].default_value = roughness
        rgba = (*colour, 1.0)
        if image is not None:
            tex = nodes.new("ShaderNodeTexImage")
            tex.image = bpy.data.images.load(image)
            tex.interpolation = "Closest"
            links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
        elif art > 0:
            coord = nodes.new("ShaderNodeTexCoord")
            info = nodes.new("ShaderNodeObjectInfo")
            shift = nodes.new("ShaderNodeVectorMath")
            shift.operation = "ADD"
            links.new(coord.outputs["Object"], shift.inputs[0])
            links.new(info.outputs["Random"], shift.inputs[1])
            noise = nodes.new("ShaderNodeTexNoise")
            noise.inputs["Scale"].default_value = 2.5
            noise.inputs["Detail"].default_value = 3.0
            links.new(shift.outputs[0], noise.inputs["Vector"])
            ramp = nodes.new("ShaderNodeValToRGB")
            lo = tuple(float(np.clip(c * (1 - art), 0, 1)) for c in colour)
            hi = tuple(float(np.clip(c * (1 + art * 0.6), 0, 1)) for c in colour)
            ramp.color_ramp.elements[0].color = (*lo, 1)
            ramp.color_ramp.elements[1].color = (*hi, 1)
            ramp.color_ramp.elements[0].position = 0.3
            ramp.color_ramp.elements[1].position = 0.7
            links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
            out = ramp.outputs["Color"]
            if dark_detail > 0:
                # Dark printed strokes (grass blades, cracks): a thin band of a Voronoi edge.
                vor = nodes.new("ShaderNodeTexVoronoi")
                vor.feature = "DISTANCE_TO_EDGE"
                vor.inputs["Scale"].default_value = 4.0
                links.new(shift.outputs[0], vor.inputs["Vector"])
                edge = nodes.new("ShaderNodeMath")
                edge.operation = "LESS_THAN"
                edge.inputs[1].default_value = 0.03
                links.new(vor.outputs["Distance"], edge.inputs[0])
                strength = nodes.new("ShaderNodeMath")
                strength.operation = "MULTIPLY"
                strength.inputs[1].default_value = dark_detail
                links.new(edge.outputs[0], strength.inputs[0])
                mix = nodes.new("ShaderNodeMixRGB")
                mix.blend_type = "MULTIPLY"
                mix.inputs["Color2"].default_value = (0.25, 0.22, 0.2, 1)
                links.new(strength.outputs[0], mix.inputs["Fac"])
                links.new(out, mix.inputs["Color1"])
                out = mix.outputs["Color"]
            links.new(out, bsdf.inputs["Base Color"])
        else:
            bsdf.inputs["Base Color"].default_value = rgba
        if linen > 0:
            coord = nodes.new("ShaderNodeTexCoord")
            wave = nodes.new("ShaderNodeTexWave")
            wave.inputs["Scale"].default_value = 60.0
            links.new(coord.outputs["Object"], wave.inputs["Vector"])
            bump = nodes.new("ShaderNodeBump")
            bump.inputs["Strength"].default_value = linen
            links.new(wave.outputs["Fac"], bump.inputs["Height"])
            links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
        return mat

    # -- meshes --------------------------------------------------------------------------
    def _prism(self, name, polygon, z0, z1, material, location=(0, 0), angle=0.0, upright=False):
        """An extruded polygon (board units); ``upright`` stands it in the XZ plane."""
        bpy = self.bpy
        poly = [(float(x), float(y)) for x, y in polygon]
        n = len(poly)
        if upright:   # polygon (x, height) extruded along y by z0..z1 (a thickness)
            verts = [(x, z0, h) for x, h in poly] + [(x, z1, h) for x, h in poly]
        else:         # polygon in the board plane, board y south -> Blender -y
            verts = [(x, -y, z0) for x, y in poly] + [(x, -y, z1) for x, y in poly]
        faces = [list(range(n))[::-1] if not upright else list(range(n)), list(range(n, 2 * n))]
        if upright:
            faces[1] = faces[1][::-1]
        faces += [[k, (k + 1) % n, n + (k + 1) % n, n + k] for k in range(n)]
        mesh = bpy.data.meshes.new(name)
        mesh.from_pydata(verts, [], faces)
        mesh.validate()
        obj = bpy.data.objects.new(name, mesh)
        obj.data.materials.append(material)
        obj.location = (float(location[0]), -float(location[1]), 0.0)
        obj.rotation_euler = (0.0, 0.0, -float(angle))
        bpy.context.scene.collection.objects.link(obj)
        return obj

    def _primitive(self, kind, material, location, scale=(1, 1, 1), rotation=(0, 0, 0), **kw):
        bpy = self.bpy
        op = {"cylinder": bpy.ops.mesh.primitive_cylinder_add, "sphere": bpy.ops.mesh.primitive_uv_sphere_add,
              "cone": bpy.ops.mesh.primitive_cone_add, "torus": bpy.ops.mesh.primitive_torus_add}[kind]
        x, y, z = location
        op(location=(float(x), -float(y), float(z)), rotation=rotation, **kw)
        obj = bpy.context.active_object
        obj.scale = scale
        obj.data.materials.append(material)
        if kind in ("sphere", "torus"):
            bpy.ops.object.shade_smooth()
        return obj

    def _build_static(self):
        bpy, look = self.bpy, self.look
        table = self._material("table", look.table, 0.8, art=0.15, linen=0.05)
        board = self._material("board", look.board, 0.7, art=0.1)
        self._prism("table", [(-60, -60), (60, -60), (60, 60), (-60, 60)], -0.5, 0.0, table)
        self._prism("board", [(BOARD_RADIUS * math.cos(math.radians(60 * k)), BOARD_RADIUS * math.sin(math.radians(60 * k)))
                              for k in range(6)], 0.0, BOARD_HEIGHT, board)
        hexagon = [(TILE_RADIUS * math.cos(math.radians(60 * k + 30)), TILE_RADIUS * math.sin(math.radians(60 * k + 30)))
                   for k in range(6)]
        mats = {name: self._material(name, getattr(look, name), 0.55, art=0.35, linen=0.08,
                                     dark_detail=0.6 if name != "snow" else 0.3)
                for name in ("grass", "snow", "rock")}
        mark = self._material("cross_mark", look.cross_mark, 0.5)
        top = BOARD_HEIGHT + TILE_HEIGHT
        for cell in range(NUM_CELLS):
            name = self.tiles[cell]
            self._prism(f"tile{cell}", hexagon, BOARD_HEIGHT, top, mats["snow" if name == "cross" else name],
                        CELL_CENTRES[cell])
            if name == "cross":
                w, l = 0.07, 0.55
                bar = [(-l, -w), (l, -w), (l, w), (-l, w)]
                base = math.pi / 4 if look.cross_shape == "x" else 0.0
                for a in (base, base + math.pi / 2):
                    self._prism("cross", bar, top, top + 0.003, mark, CELL_CENTRES[cell], a)
        # Marker cards, laid by hand: a little off their nominal place.
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
        px = 240
        pad = int(round(px * MARKER_QUIET / MARKER_SIZE))
        half = MARKER_SIZE / 2 * (px + 2 * pad) / px
        for marker, (dx, dy, da) in zip(MARKER_IDS, look.card_offsets):
            img = cv2.aruco.generateImageMarker(dictionary, marker, px)
            img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=245)
            path = os.path.join(self._tmp, f"marker{marker}.png")
            cv2.imwrite(path, img)
            mat = self._material(f"card{marker}", (1, 1, 1), 0.7, image=path)
            cx, cy = marker_centre(marker)
            card = self._prism(f"card{marker}", [(-half, -half), (half, -half), (half, half), (-half, half)],
                               BOARD_HEIGHT, BOARD_HEIGHT + CARD_HEIGHT, mat, (cx + dx, cy + dy), da)
            self._uv_top(card, half)
        for k, lamp in enumerate(look.lamps):
            data = bpy.data.lights.new(f"lamp{k}", "AREA")
            data.size = lamp["size"]
            x, y, z = lamp["position"]
            data.energy = lamp["power"] * 2.6 * math.pi * (x * x + y * y + z * z) * 1.0
            data.color = lamp["colour"]
            obj = bpy.data.objects.new(f"lamp{k}", data)
            obj.location = (x, -y, z)
            direction = -np.array(obj.location) / np.linalg.norm(obj.location)
            from mathutils import Vector
            obj.rotation_euler = Vector(direction.tolist()).to_track_quat("-Z", "Y").to_euler()
            bpy.context.scene.collection.objects.link(obj)
        self._camera()

    def _uv_top(self, obj, half):
        """Map the card's image onto its top face (u east, v north)."""
        mesh = obj.data
        uv = mesh.uv_layers.new(name="uv")
        for poly in mesh.polygons:
            for li in poly.loop_indices:
                v = mesh.vertices[mesh.loops[li].vertex_index].co
                uv.data[li].uv = ((v.x + half) / (2 * half), (v.y + half) / (2 * half))

    def _camera(self):
        bpy, cam = self.bpy, self.look.camera
        from mathutils import Euler, Vector
        data = bpy.data.cameras.new("camera")
        # A wide lens (a Pi camera module 3 wide, a webcam) sits lower for the same
        # board: pieces lean further over their neighbours.
        data.lens, data.sensor_width, data.sensor_fit = cam.get("lens", 35.0), 36.0, "HORIZONTAL"
        f_px = IMAGE_SIZE[0] * data.lens / data.sensor_width
        # Distance so the board's diameter fills ``fill`` of the image height.
        distance = BOARD_RADIUS * f_px / (cam["fill"] * IMAGE_SIZE[1] / 2) * 1.02
        t, a = cam["tilt"], cam["azimuth"]
        target = Vector((cam["shift"][0], -cam["shift"][1], 0.0))
        pos = target + Vector((math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t))) * distance
        obj = bpy.data.objects.new("camera", data)
        obj.location = pos
        quat = (target - pos).to_track_quat("-Z", "Y")
        roll = Euler((0, 0, cam["roll"])).to_quaternion()
        obj.rotation_euler = (quat @ roll).to_euler()
        bpy.context.scene.collection.objects.link(obj)
        self.scene.camera = obj

    # -- pieces --------------------------------------------------------------------------
    def clear_pieces(self):
        for obj in self.pieces:
            self.bpy.data.objects.remove(obj, do_unlink=True)
        self.pieces = []

    def add_pieces(self, placements: list[Placement]):
        look = self.look
        mat = self._materials
        if not mat:
            mat["mammoth"] = self._material("mammoth", look.mammoth, 0.7, art=0.25)
            mat["tusk"] = self._material("tusk", (0.92, 0.88, 0.78), 0.4)
            mat["eye"] = self._material("eye", (0.03, 0.03, 0.03), 0.3)
            mat["rim"] = self._material("rim", look.rim, 0.5)
            for k, colour in enumerate(look.players):
                mat[f"c{k}"] = self._material(f"player{k}", colour, 0.45)
                mat[f"trap{k}"] = self._material(f"trap{k}", colour, 0.5, art=0.2)
        top = BOARD_HEIGHT + TILE_HEIGHT
        stacked = {p.cell for p in placements if p.kind == "trap"}
        for p in placements:
            before = set(self.bpy.data.objects)
            if p.kind == "trap":
                self._trap(p, mat[f"trap{int(p.owner[1:])}"], top)
            elif p.kind == "mammoth":
                self._mammoth(p, mat, top)
            else:
                base = top + (0.05 if p.cell in stacked else 0.0)
                self._hunter(p, mat[p.owner], mat["rim"], base)
            self.pieces += [o for o in self.bpy.data.objects if o not in before]

    def _trap(self, p, material, top):
        kind = self.look.trap_kind
        if kind == "ring":
            self._primitive("torus", material, (p.x, p.y, top + 0.02), scale=(1, 1, 0.35),
                            major_radius=0.5, minor_radius=0.1, major_segments=48, minor_segments=8)
        elif kind == "square":
            s = 0.5
            self._prism("trap", [(-s, -s), (s, -s), (s, s), (-s, s)], top, top + 0.05, material, (p.x, p.y), p.angle)
        else:
            self._primitive("cylinder", material, (p.x, p.y, top + 0.025), vertices=48, radius=0.6, depth=0.05)

    def _hunter(self, p, colour, rim, base):
        kind = self.look.hunter_kind
        if kind == "kit_disc":
            self._primitive("cylinder", rim, (p.x, p.y, base + 0.06), vertices=40, radius=0.36, depth=0.12)
            self._primitive("cylinder", colour, (p.x, p.y, base + 0.1205), vertices=40, radius=0.22, depth=0.001)
        elif kind == "pawn":
            self._primitive("cylinder", colour, (p.x, p.y, base + 0.06), vertices=32, radius=0.3, depth=0.12)
            self._primitive("cone", colour, (p.x, p.y, base + 0.45), vertices=32, radius1=0.24, radius2=0.1, depth=0.7)
            self._primitive("sphere", colour, (p.x, p.y, base + 0.9), segments=24, ring_count=12, radius=0.17)
        elif kind == "wood_disc":   # a plain wooden disc: no outline, rounded edge
            self._primitive("cylinder", colour, (p.x, p.y, base + 0.07), vertices=40, radius=0.32, depth=0.14)
        elif kind == "figure":      # a painted figurine, 3.5 cm tall: legs, body, head, spear
            ca, sa = math.cos(p.angle), math.sin(p.angle)
            for v in (0.09, -0.09):
                self._primitive("cylinder", colour, (p.x - v * sa, p.y + v * ca, base + 0.28), vertices=12,
                                radius=0.07, depth=0.56)
            self._primitive("cylinder", colour, (p.x, p.y, base + 0.025), vertices=32, radius=0.3, depth=0.05)
            self._primitive("cylinder", colour, (p.x, p.y, base + 0.8), vertices=20, radius=0.17, depth=0.5)
            self._primitive("sphere", colour, (p.x, p.y, base + 1.2), segments=20, ring_count=10, radius=0.14)
            self._primitive("cylinder", self._materials["tusk"], (p.x + 0.2 * ca, p.y + 0.2 * sa, base + 0.75),
                            vertices=8, radius=0.025, depth=1.4, rotation=(math.radians(10), 0, -p.angle))
        else:   # meeple, 2 cm tall, standing
            w = 0.42
            outline = [(-w, 0), (-0.12, 0), (0, 0.22), (0.12, 0), (w, 0), (0.2, 0.42), (0.45, 0.52), (0.4, 0.65),
                       (0.16, 0.66), (0.14, 0.8), (0, 0.88), (-0.14, 0.8), (-0.16, 0.66), (-0.4, 0.65),
                       (-0.45, 0.52), (-0.2, 0.42)]
            obj = self._prism("meeple", [(x, y + base / 1.0 * 0) for x, y in outline], -0.12, 0.12, colour,
                              (p.x, p.y), p.angle, upright=True)
            obj.location.z = base

    def _mammoth(self, p, mat, top):
        if self.look.mammoth_kind == "token":
            # A thick printed token with a darker edge, clear of its tile's outer ring (a
            # token as large as the tile hides the tile: its cell reads as covered).
            self._primitive("cylinder", mat["rim"], (p.x, p.y, top + 0.04), vertices=6, radius=0.66, depth=0.08,
                            rotation=(0, 0, -p.angle))
            self._primitive("cylinder", mat["mammoth"], (p.x, p.y, top + 0.0805), vertices=6, radius=0.6,
                            depth=0.001, rotation=(0, 0, -p.angle))
            return
        from mathutils import Matrix
        objs = []
        ca, sa = math.cos(p.angle), math.sin(p.angle)

        def at(u, v):   # body frame (u forward, v left) -> board
            return p.x + u * ca - v * sa, p.y + u * sa + v * ca

        objs.append(self._primitive("sphere", mat["mammoth"], (*at(-0.05, 0), top + 0.55), scale=(0.48, 0.33, 0.3),
                                    rotation=(0, 0, -p.angle), segments=32, ring_count=16, radius=1.0))
        objs.append(self._primitive("sphere", mat["mammoth"], (*at(0.42, 0), top + 0.72), segments=24, ring_count=12,
                                    radius=0.21))
        for u, v in ((0.25, 0.17), (0.25, -0.17), (-0.3, 0.17), (-0.3, -0.17)):
            objs.append(self._primitive("cylinder", mat["mammoth"], (*at(u, v), top + 0.2), vertices=16, radius=0.09,
                                        depth=0.4))
        for v in (0.09, -0.09):
            objs.append(self._primitive("cone", mat["tusk"], (*at(0.62, v), top + 0.55), vertices=12, radius1=0.04,
                                        radius2=0.01, depth=0.35, rotation=(0, math.radians(120), -p.angle)))
        # A trunk hanging down.
        objs.append(self._primitive("cylinder", mat["mammoth"], (*at(0.6, 0), top + 0.45), vertices=12, radius=0.06,
                                    depth=0.45, rotation=(0, math.radians(15), -p.angle)))
        del Matrix, objs

    # -- a hand ---------------------------------------------------------------------------
    def add_hand(self, hand: PhotoHand):
        """Put a forearm and hand over the board (removed by :meth:`clear_pieces`)."""
        from mathutils import Vector
        bpy = self.bpy
        skin = self._material(f"skin{len(self.pieces)}", hand.skin, 0.5)
        sleeve = self._material(f"sleeve{len(self.pieces)}", hand.sleeve, 0.85, linen=0.1) if hand.sleeve else None
        before = set(bpy.data.objects)
        for kind, start, end, radius in hand_segments(hand):
            a = Vector((float(start[0]), -float(start[1]), float(start[2])))
            b = Vector((float(end[0]), -float(end[1]), float(end[2])))
            axis = b - a
            mid = (a + b) / 2
            rotation = axis.to_track_quat("Z", "Y").to_euler()
            material = sleeve if kind == "sleeve" else skin
            if kind in ("forearm", "sleeve"):
                bpy.ops.mesh.primitive_cylinder_add(vertices=32, radius=radius, depth=axis.length, location=mid,
                                                    rotation=rotation)
                obj = bpy.context.active_object
                bpy.ops.object.shade_smooth()
                obj.data.materials.append(material)
                if kind == "forearm":   # a rounded wrist
                    bpy.ops.mesh.primitive_uv_sphere_add(segments=24, ring_count=12, radius=radius * 0.95,
                                                         location=a)
                    bpy.ops.object.shade_smooth()
                    bpy.context.active_object.data.materials.append(skin)
            else:
                flat = 0.42 if kind == "palm" else 0.85
                bpy.ops.mesh.primitive_uv_sphere_add(segments=24, ring_count=12, radius=1.0, location=mid,
                                                     rotation=rotation)
                obj = bpy.context.active_object
                obj.scale = (radius, radius * flat, axis.length / 2 + radius * 0.3)
                bpy.ops.object.shade_smooth()
                obj.data.materials.append(material)
        if hand.holding is not None:
            if not self._materials:
                self.add_pieces([])
            top = BOARD_HEIGHT + TILE_HEIGHT
            held = Placement("hunter", -1, hand.target[0], hand.target[1], 0.0, hand.holding)
            self._hunter(held, self._materials[hand.holding], self._materials["rim"], top + hand.height - 1.0)
        self.pieces += [o for o in bpy.data.objects if o not in before]

    # -- render --------------------------------------------------------------------------
    def render(self, path: str) -> None:
        self.scene.render.use_border = False
        self.scene.render.filepath = path
        self.bpy.ops.render.render(write_still=True)

    def project(self, points) -> np.ndarray:
        """Pixel coordinates (x right, y down) of board points ``(x, y, z)``."""
        from bpy_extras.object_utils import world_to_camera_view
        from mathutils import Vector
        w, h = IMAGE_SIZE
        out = []
        for x, y, z in np.asarray(points, dtype=float):
            v = world_to_camera_view(self.scene, self.scene.camera, Vector((x, -y, z)))
            out.append((v.x * w, (1 - v.y) * h))
        return np.array(out)

    def shadow_points(self, points) -> np.ndarray:
        """Where ``points`` (board x, y, z) cast their shadow on the tiles, from every
        lamp's corners (soft shadows reach out by about the lamp's size)."""
        top = BOARD_HEIGHT + TILE_HEIGHT
        points = np.asarray(points, dtype=float)
        out = [points]
        for lamp in self.look.lamps:
            lx, ly, lz = lamp["position"]
            half = lamp["size"] / 2
            for cx, cy in ((-half, -half), (half, -half), (half, half), (-half, half)):
                source = np.array([lx + cx, ly + cy, lz])
                heights = np.clip(points[:, 2] - top, 0, None)
                t = heights / np.maximum(source[2] - points[:, 2], 0.5)
                shadow = points + (points - source) * t[:, None]
                shadow[:, 2] = top
                out.append(shadow)
        return np.concatenate(out)

    def render_region(self, path: str, box: tuple) -> np.ndarray:
        """Render only the pixel box ``(x0, y0, x1, y1)`` (y down); returns that BGR crop.

        The same sampling seed as a full frame: outside the changes, the crop matches
        the previous frame's pixels up to the denoiser, so it can be pasted on it.
        """
        w, h = IMAGE_SIZE
        x0, y0, x1, y1 = box
        render = self.scene.render
        render.use_border = True
        render.use_crop_to_border = True
        render.border_min_x, render.border_max_x = x0 / w, x1 / w
        render.border_min_y, render.border_max_y = 1 - y1 / h, 1 - y0 / h
        render.image_settings.file_format = "PNG"
        render.filepath = path
        try:
            self.bpy.ops.render.render(write_still=True)
        finally:
            render.image_settings.file_format = "JPEG"
            render.use_border = False
        crop = cv2.imread(path, cv2.IMREAD_COLOR)
        return cv2.resize(crop, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST) \
            if crop.shape[:2] != (y1 - y0, x1 - x0) else crop

    def camera_matrix(self) -> dict:
        """The camera's intrinsics and pose (board units), for parallax checks."""
        cam = self.scene.camera
        f_px = IMAGE_SIZE[0] * cam.data.lens / cam.data.sensor_width
        return {"f_px": f_px, "location": [float(cam.location.x), float(-cam.location.y), float(cam.location.z)]}
