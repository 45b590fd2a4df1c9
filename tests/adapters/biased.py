"""Adapters for tests/test_behaviours.py: both declare Keras-on-TensorFlow's documented bias_add
behaviour of add (adapters/behaviours.py); one adds exactly as the model says, the other
differs in another way wherever that behaviour would apply (it subtracts the bias)."""
from adapters.behaviours import KERAS_TENSORFLOW_BIAS_ADD, bias_add
from adapters.reference import ReferenceAdapter


class BiasAdding(ReferenceAdapter):
    name = "bias-adding"
    behaviours = (KERAS_TENSORFLOW_BIAS_ADD,)

    def add(self, a, b):
        return bias_add(a, b)


class BiasSubtracting(BiasAdding):
    name = "bias-subtracting"

    def add(self, a, b):
        modelled = bias_add(a, b)
        return modelled if modelled.shape == (a + b).shape else modelled - 2 * b.reshape(-1)[0]
