"""Arithmetic as models write it: Python's operators on the framework's tensors."""


class PythonOperators:
    """Arithmetic as models write it, Python's operators: a Python number on either side (x + 1.5,
    2 * x) goes through the framework's own scalar rules, where the functional form (torch.add,
    tf.math.add) refuses a number first. A mixin, before Adapter, of the adapters whose tensors
    overload the operators (torch, tensorflow, paddle)."""

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
