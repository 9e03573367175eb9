"""The shared wire format on CPython: COBS, CRC-16 and framing, fuzzed with hypothesis."""

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p


@given(st.binary(max_size=2000))
def test_crc16_matches_the_standard_library_ccitt_implementation(data):
    assert p.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(st.binary(max_size=2000))
def test_cobs_round_trips_and_never_emits_a_zero(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data
    assert len(encoded) <= len(data) + len(data) // 254 + 1


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=400))
def test_frames_round_trip(kind, seq, payload):
    wire = p.encode_frame(kind, seq, payload)
    assert wire.count(0) == 1 and wire[-1] == 0
    assert p.decode_frame(wire[:-1]) == (kind, seq, payload)


@given(st.binary(max_size=600))
def test_arbitrary_bytes_either_decode_or_raise_protocol_error(data):
    reader = p.FrameReader()
    for block in reader.feed(data + b"\x00"):
        try:
            kind, seq, payload = p.decode_frame(block)
        except p.ProtocolError:
            continue
        assert p.cobs_encode(bytes((kind, seq)) + payload)  # a genuine frame


@settings(derandomize=True)
@given(st.binary(max_size=200), st.integers(min_value=0), st.integers(1, 255))
def test_a_damaged_data_byte_is_always_caught(payload, where, flip):
    """CRC-16 catches every single-byte error in the frame body."""
    body = bytearray((p.SET_ALL, 9)) + payload
    crc = p.crc16(body)
    body += bytes((crc >> 8, crc & 0xFF))
    body[where % len(body)] ^= flip
    with pytest.raises(p.ProtocolError):
        p.decode_frame(p.cobs_encode(bytes(body)))


@settings(derandomize=True)
@given(st.binary(min_size=1, max_size=300), st.data())
def test_truncated_frames_are_rejected(payload, data):
    wire = p.encode_frame(p.SET_ALL, 3, payload)[:-1]
    cut = data.draw(st.integers(1, len(wire) - 1))
    with pytest.raises(p.ProtocolError):
        p.decode_frame(wire[:cut])


def test_reader_splits_a_stream_and_bounds_its_buffer():
    reader = p.FrameReader(limit=10)
    assert reader.feed(b"\x00\x00abc") == []
    assert reader.feed(b"\x00" + b"x" * 50 + b"\x00def\x00") == [b"abc", b"def"]
    assert reader.overflows == 1
    assert len(reader.buffer) == 0


def test_info_payload_round_trips():
    info = p.parse_info(p.info_payload((2, 5, 9), 41, 96, 1500))
    assert info == {"protocol": p.PROTOCOL_VERSION, "firmware": "2.5.9", "led_count": 41,
                    "brightness": 96, "current_limit_ma": 1500}
    with pytest.raises(p.ProtocolError):
        p.parse_info(b"\x01")
