"""Variables and tf.function: created once, read live, updated in place."""
import contextlib

import autograph as tf


@contextlib.contextmanager
def assert_raises(error_class):
  try:
    yield
  except error_class as e:
    print('Caught expected exception \n  {}:'.format(error_class))
    # The message also names this file's path and line; show the part that says what is wrong.
    said = [l.strip() for l in str(e).splitlines() if l.strip().startswith('ValueError: ')]
    print(said[-1] if said else str(e).splitlines()[0])
  else:
    raise Exception('Expected {} to be raised but no error was raised!'.format(error_class))


# A Variable created on every call is an error...
@tf.function
def f(x):
  v = tf.Variable(1.0)
  return v


with assert_raises(ValueError):
  f(1.0)


# ...but creating it on the first call only is the usual pattern.
class Count(tf.Module):
  def __init__(self):
    self.count = None

  @tf.function
  def __call__(self):
    if self.count is None:
      self.count = tf.Variable(0)
    return self.count.assign_add(1)


c = Count()
print(c())
print(c())


# Python state is read at trace time; Variables are read when the graph runs.
class Model(tf.Module):
  def __init__(self):
    self.v = tf.Variable(0)
    self.counter = 0

  @tf.function
  def __call__(self):
    if self.counter == 0:
      # A python side-effect
      self.counter += 1
      self.v.assign_add(1)

    return self.v


m = Model()
for n in range(3):
  print(m().numpy())  # prints 1, 2, 3


@tf.function
def variable_add():
  return 1 + foo


foo = tf.Variable(1)
print("Variable:", variable_add())
print("Updating the value of `foo` to 100!")
foo.assign(100)
print("Variable:", variable_add())
