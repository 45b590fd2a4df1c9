"""paddle.jit.to_static (its default, SOT) of a function that calls a method of a dataclass
instance raises InnerError ("HasNoAttributeError: DataClassInstanceVariable ... has no attribute
apply") instead of translating the call or falling back to eager."""
from dataclasses import dataclass

import paddle


@dataclass(frozen=True)
class Scale:
    k: float

    def apply(self, x):
        return x * self.k


scale = Scale(2.0)
print(paddle.jit.to_static(lambda x: scale.apply(x))(paddle.ones([2])).numpy())  # raises InnerError
