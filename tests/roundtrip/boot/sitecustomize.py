"""Applies the round trip's shadowing in Python subprocesses started by the tests under test.

The runner puts this directory on ``PYTHONPATH`` and names the module and
its copy in ``AUTOGRAPH_ROUNDTRIP_SHADOW``; without that variable this does
nothing. (Subprocesses started with ``-I`` or ``-E`` skip it and use the
stdlib, in both the unconverted and the converted run alike.)
"""
try:
    import _ag_roundtrip_shadow
    _ag_roundtrip_shadow.install_from_environment()
except Exception as exc:  # never break the interpreter's start-up; say why
    import sys
    print(f"round-trip sitecustomize: {exc!r}", file=sys.stderr)
