"""A tour without a notebook (``make demo``): convert a user package, read it, run it, see its graph.

1. the original function and what AutoGraph makes of it (``tf.autograph.to_code``);
2. ``autograph convert`` turns the whole example package into a converted copy;
3. the copy is imported and run, and gives what the original gives under ``tf.function``;
4. ``autograph graph`` prints the graph that one call traced.

The CLI runs as a subprocess of this same interpreter (``python -m autograph``),
exactly as a user would run it. The temporary output directory is shown as $OUT.
"""
import inspect
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import autograph as tf  # noqa: E402


def section(title):
  print()
  print("=" * 8, title)


def autograph_cli(*args, out):
  """Runs ``autograph ARGS`` in examples/ and prints what it prints ($OUT for the temp dir)."""
  print("$ autograph " + " ".join(shlex.quote(a).replace(out, "$OUT") for a in args))
  done = subprocess.run([sys.executable, "-m", "autograph", *args], cwd=HERE,
                        capture_output=True, text=True)
  sys.stdout.write((done.stdout + done.stderr).replace(out, "$OUT"))
  if done.returncode != 0:
    raise SystemExit(f"autograph {args[0]} failed with exit status {done.returncode}")


x = tf.constant([1.0, 2.0, 0.5])

import userpkg as original  # noqa: E402  (the package as written, in examples/userpkg)

section("1. A function from examples/userpkg/core.py")
print(inspect.getsource(original.squash))
section("2. What AutoGraph makes of it: tf.autograph.to_code(squash)")
print(tf.autograph.to_code(original.squash))
expected = tf.function(original.squash)(x)

# Forget the original package: the converted copy has the same name.
for name in [n for n in sys.modules if n == "userpkg" or n.startswith("userpkg.")]:
  del sys.modules[name]
sys.path.remove(HERE)

with tempfile.TemporaryDirectory() as out:
  section("3. Convert the whole package with the CLI")
  autograph_cli("convert", "userpkg", "-o", out, "--wrap-all", out=out)

  section("4. Import the converted package and run it")
  sys.path.insert(0, out)
  import userpkg  # noqa: E402  (now the converted copy in $OUT)
  print("userpkg comes from", os.path.dirname(userpkg.__file__).replace(out, "$OUT"))
  print("userpkg.squash is", type(userpkg.squash).__name__, "(converted, then wrapped by tf.function)")
  result = userpkg.squash(x)
  print("squash(x) =", result)
  print("same as tf.function(original squash):", bool(tf.reduce_all(result == expected)))
  print("collatz_steps(27) =", userpkg.collatz_steps(tf.constant(27)))
  print("sum_multiples(20) =", userpkg.sum_multiples(tf.constant(20)))

  section("5. The graph squash traces for float32 vectors of any length")
  autograph_cli("graph", os.path.join(out, "userpkg", "core.py") + ":squash",
                "--spec", "float32[None]", out=out)
