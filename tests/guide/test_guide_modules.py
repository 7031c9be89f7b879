"""TensorFlow's "Introduction to modules, layers, and models" guide, run with ``import autograph as tf``.

Each test is a part of the guide's code as the guide writes it (prints included); the
expected text is what TensorFlow 2.21 prints for it, recorded as a literal.
The tf.Module and saving parts. Random values and object addresses are not printed,
nor the SavedModel directory listing (this library writes its own format).
"""
import os  # noqa: F401
import shutil  # noqa: F401
import tempfile  # noqa: F401

import numpy as np  # noqa: F401

import autograph as tf


def expect(text: str) -> str:
    return text[1:]


def test_defining_models_and_layers(out):
    class SimpleModule(tf.Module):
      def __init__(self, name=None):
        super().__init__(name=name)
        self.a_variable = tf.Variable(5.0, name="train_me")
        self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")
      def __call__(self, x):
        return self.a_variable * x + self.non_trainable_variable
    simple_module = SimpleModule(name="simple")
    print(simple_module(tf.constant(5.0)))
    print("trainable variables:", simple_module.trainable_variables)
    print("all variables:", simple_module.variables)
    assert out() == expect(r'''
tf.Tensor(30.0, shape=(), dtype=float32)
trainable variables: (<tf.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>,)
all variables: (<tf.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>, <tf.Variable 'do_not_train_me:0' shape=() dtype=float32, numpy=5.0>)
''')


def test_sequential_module(out):
    class Dense(tf.Module):
      def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(
          tf.random.normal([in_features, out_features]), name='w')
        self.b = tf.Variable(tf.zeros([out_features]), name='b')
      def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)

    class SequentialModule(tf.Module):
      def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)
      def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)
    my_model = SequentialModule(name="the_model")
    r = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    print(r.shape, r.dtype)
    print("Submodules:", [type(m).__name__ for m in my_model.submodules])
    for var in my_model.variables:
      print(var.name, var.shape, var.dtype)
    assert out() == expect(r'''
(1, 2) <dtype: 'float32'>
Submodules: ['Dense', 'Dense']
b:0 (3,) <dtype: 'float32'>
w:0 (3, 3) <dtype: 'float32'>
b:0 (2,) <dtype: 'float32'>
w:0 (3, 2) <dtype: 'float32'>
''')


def test_waiting_to_create_variables(out):
    class FlexibleDenseModule(tf.Module):
      def __init__(self, out_features, name=None):
        super().__init__(name=name)
        self.is_built = False
        self.out_features = out_features
      def __call__(self, x):
        if not self.is_built:
          self.w = tf.Variable(
            tf.random.normal([x.shape[-1], self.out_features]), name='w')
          self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
          self.is_built = True
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)
    class MySequentialModule(tf.Module):
      def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = FlexibleDenseModule(out_features=3)
        self.dense_2 = FlexibleDenseModule(out_features=2)
      def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)

    my_model = MySequentialModule(name="the_model")
    print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])).shape)
    print(len(my_model.variables), len(my_model.trainable_variables))
    print(my_model.name, my_model.dense_1.name, my_model.name_scope.name)
    with my_model.name_scope as scope:
      print(scope)
    assert out() == expect(r'''
Model results: (1, 2)
4 4
the_model flexible_dense_module the_model/
the_model/
''')


def test_saving_weights(out):
    class FlexibleDenseModule(tf.Module):
      def __init__(self, out_features, name=None):
        super().__init__(name=name)
        self.is_built = False
        self.out_features = out_features
      def __call__(self, x):
        if not self.is_built:
          self.w = tf.Variable(
            tf.random.normal([x.shape[-1], self.out_features]), name='w')
          self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
          self.is_built = True
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)
    class MySequentialModule(tf.Module):
      def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = FlexibleDenseModule(out_features=3)
        self.dense_2 = FlexibleDenseModule(out_features=2)
      def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)

    d = tempfile.mkdtemp()
    my_model = MySequentialModule(name="the_model")
    my_model(tf.constant([[2.0, 2.0, 2.0]]))
    chkp_path = os.path.join(d, "my_checkpoint")
    checkpoint = tf.train.Checkpoint(model=my_model)
    print(os.path.basename(checkpoint.write(chkp_path)))
    print(sorted(os.listdir(d)))
    for name, shape in tf.train.list_variables(chkp_path):
      print(name, shape)
    new_model = MySequentialModule()
    new_model(tf.constant([[0.0, 0.0, 0.0]]))
    new_checkpoint = tf.train.Checkpoint(model=new_model)
    new_checkpoint.restore(chkp_path)
    print(bool(tf.reduce_all(new_model.dense_1.w == my_model.dense_1.w)))
    shutil.rmtree(d)
    assert out() == expect(r'''
my_checkpoint
['my_checkpoint.data-00000-of-00001', 'my_checkpoint.index']
_CHECKPOINTABLE_OBJECT_GRAPH []
model/dense_1/b/.ATTRIBUTES/VARIABLE_VALUE [3]
model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE [3, 3]
model/dense_2/b/.ATTRIBUTES/VARIABLE_VALUE [2]
model/dense_2/w/.ATTRIBUTES/VARIABLE_VALUE [3, 2]
True
''')


def test_saving_functions(out):
    class Dense(tf.Module):
      def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(
          tf.random.normal([in_features, out_features]), name='w')
        self.b = tf.Variable(tf.zeros([out_features]), name='b')
      def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)

    class MySequentialModule(tf.Module):
      def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)
      @tf.function
      def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)
    my_model = MySequentialModule(name="the_model")
    print(my_model([[2.0, 2.0, 2.0]]).shape)
    print(my_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]).shape)
    d = tempfile.mkdtemp()
    tf.saved_model.save(my_model, os.path.join(d, "the_saved_model"))
    new_model = tf.saved_model.load(os.path.join(d, "the_saved_model"))
    print(isinstance(new_model, MySequentialModule))
    print(new_model([[2.0, 2.0, 2.0]]).shape)
    print(new_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]).shape)
    shutil.rmtree(d)
    assert out() == expect(r'''
(1, 2)
(1, 2, 2)
False
(1, 2)
(1, 2, 2)
''')
