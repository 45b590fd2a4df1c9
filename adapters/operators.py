"""Arithmetic, comparisons and bit operations as models write them: Python's operators on the
framework's tensors."""


class PythonOperators:
    """Arithmetic, comparisons and bit operations as models write them, Python's operators: a
    Python number on either side (x + 1.5, 2 * x, x == 0) goes through the framework's own scalar
    rules, where the functional form (torch.add, tf.math.add) refuses a number first. A mixin,
    before Adapter, of the adapters whose tensors overload the operators (torch, tensorflow,
    paddle); an adapter whose tensors lack one (TensorFlow's << and >>) calls the framework's
    function of the op instead."""

    def add(self, a, b):
        return a + b

    def sub(self, a, b):
        return a - b

    def mul(self, a, b):
        return a * b

    def div(self, a, b):
        return a / b

    def pow(self, a, b):
        return a ** b

    def floor_divide(self, a, b):
        return a // b

    def remainder(self, a, b):
        return a % b

    def greater(self, a, b):
        return a > b  # a Python number on the left: Python asks the tensor's __lt__

    def equal(self, a, b):
        return a == b

    def not_equal(self, a, b):
        return a != b

    def less(self, a, b):
        return a < b

    def less_equal(self, a, b):
        return a <= b

    def greater_equal(self, a, b):
        return a >= b

    def bitwise_and(self, a, b):
        return a & b

    def bitwise_or(self, a, b):
        return a | b

    def bitwise_xor(self, a, b):
        return a ^ b

    def bitwise_invert(self, x):
        return ~x

    def bitwise_left_shift(self, a, b):
        return a << b

    def bitwise_right_shift(self, a, b):
        return a >> b

    def positive(self, x):
        return +x
