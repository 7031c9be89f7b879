"""When a Function traces again: new dtypes and shapes, Python arguments, and the trace log."""
import autograph as tf


@tf.function
def double(a):
  print("Tracing with", a)
  return a + a


print(double(tf.constant(1)))
print()
print(double(tf.constant(1.1)))
print()
print(double(tf.constant("a")))
print()
# This doesn't print 'Tracing with ...'
print(double(tf.constant("b")))
print()
print(double.pretty_printed_concrete_signatures())
print()


# Python arguments are part of the trace key: each new value traces again.
@tf.function
def power(a, b=2):
  print("Tracing power with b =", b)
  return a ** b


x = tf.constant(3.0)
print(power(x))
print(power(x, 3))
print(power(x, 3))  # same value: no new trace
print("traces:", power.experimental_get_tracing_count())
print(power.get_concrete_function(tf.TensorSpec([], tf.float32), 3))
