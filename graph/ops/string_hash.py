"""The 64-bit string hashes behind TensorFlow's hash buckets, bit for bit: SipHash-2-4
(``to_hash_bucket_strong``, keyed) and the MurmurHash64A variant of TensorFlow's ``Hash64``
(the legacy ``to_hash_bucket``). FarmHash's Fingerprint64 (``to_hash_bucket_fast``) is in
graph/farmhash.py."""
from __future__ import annotations

_M64 = (1 << 64) - 1


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _M64


def _sip_rounds(v0: int, v1: int, v2: int, v3: int, n: int):
    for _ in range(n):
        v0 = (v0 + v1) & _M64
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = (v2 + v3) & _M64
        v3 = _rotl(v3, 16) ^ v2
        v0 = (v0 + v3) & _M64
        v3 = _rotl(v3, 21) ^ v0
        v2 = (v2 + v1) & _M64
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def siphash24(data: bytes, key) -> int:
    """SipHash-2-4 of ``data`` under the 128-bit key given as two 64-bit ints."""
    k0, k1 = (int(k) & _M64 for k in key)
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573
    n = len(data)
    end = n - n % 8
    for i in range(0, end, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v0, v1, v2, v3 = _sip_rounds(v0, v1, v2, v3 ^ m, 2)
        v0 ^= m
    last = ((n & 0xFF) << 56) | int.from_bytes(data[end:], "little")
    v0, v1, v2, v3 = _sip_rounds(v0, v1, v2, v3 ^ last, 2)
    v0, v1, v2, v3 = _sip_rounds(v0 ^ last, v1, v2 ^ 0xFF, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def hash64(data: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TensorFlow's ``Hash64`` (MurmurHash64A with its default seed)."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _M64
    end = n - n % 8
    for i in range(0, end, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & _M64
        k = ((k ^ (k >> r)) * m) & _M64
        h = ((h ^ k) * m) & _M64
    if n > end:
        h = ((h ^ int.from_bytes(data[end:], "little")) * m) & _M64
    h = ((h ^ (h >> r)) * m) & _M64
    return h ^ (h >> r)
