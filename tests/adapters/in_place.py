"""An adapter whose ops write into what they are handed, as torch's floor_, an `out=` argument or a
donated buffer do: its results are right, and its inputs are not what they were."""
import numpy as np

from adapters.reference import ReferenceAdapter


class InPlaceAdapter(ReferenceAdapter):
    """floor right, written into its input (NumPy's out=): the result is the input array."""
    name = "in-place"

    def floor(self, x):
        return np.floor(x, out=x)

    def abs(self, x):  # its reverse pass is the reference's: it is the forward pass that writes
        return np.abs(x, out=x)
