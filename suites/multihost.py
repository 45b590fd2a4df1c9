"""One rank of a multi-host collective run: `python -m suites.multihost SPEC_ID [CASE]`.

The adapter joins the group through its `collective_rank` (adapters/base.py); today torch does
(torch.distributed), and another adapter says it cannot. Every host runs this with torchrun's
variables (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, as
`torchrun --nnodes=N --nproc-per-node=1 ...` sets them, or by hand). Each rank builds the same
example shards from the spec (the filler is seeded by the spec and case names), joins the
torch.distributed group, runs the collective on its own shard, and checks its output against the
float64 reference's output for its rank. It prints one JSON line and exits 0 when it agrees,
1 when it does not, 2 on bad input. With MASTER_PORT=0, rank 0 binds a free port and prints
`port N` first, for the other ranks to use.
"""
import argparse
import json
import os
import sys

import numpy as np

import adapters
from adapters.base import Unsupported
from suites import compare, inputs, specs
from suites.program import ORACLE, widen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m suites.multihost", description=__doc__.splitlines()[0])
    parser.add_argument("spec_id", help="a collective spec's id in the spec file, e.g. all-reduce-sum")
    parser.add_argument("case", nargs="?", default=None, help="the example's name (default: the first)")
    parser.add_argument("--spec", default="specs/collectives.yaml")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--device", default="cpu", help="cpu, or cuda (NCCL on cuda:LOCAL_RANK)")
    parser.add_argument("--adapter", default="torch",
                        help="the adapter whose runtime joins the group (default: torch)")
    args = parser.parse_args(argv)
    try:
        spec = next((s for s in specs.load_path(args.spec) if s.id == args.spec_id and s.collective), None)
        if spec is None:
            raise specs.SpecError(f"{args.spec}: no collective spec with id {args.spec_id!r}")
        example = next((e for e in spec.examples if args.case in (None, e.name)), None)
        if example is None:
            raise specs.SpecError(f"{spec.name}: no example named {args.case!r}")
        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        host, port = os.environ.get("MASTER_ADDR", "127.0.0.1"), int(os.environ.get("MASTER_PORT", "0"))
        adapter = adapters.get(args.adapter)
    except (specs.SpecError, adapters.AdapterError, KeyError, ValueError) as exc:
        print(f"parity multihost: {exc}", file=sys.stderr)
        return 2
    shards = inputs.example(spec, example, args.dtype)["shards"]
    if len(shards) != world:
        print(f"parity multihost: {spec.name}/{example.name} has {len(shards)} shards; WORLD_SIZE is {world}",
              file=sys.stderr)
        return 2
    try:
        serve = adapter.collective_rank(rank, world, lambda info: print(f"port {info['port']}", flush=True),
                                        device=args.device, port=port, host=host)
    except Unsupported as exc:
        print(f"parity multihost: {exc}", file=sys.stderr)
        return 2
    [out] = serve(spec.collective, [shards[rank].astype(args.dtype)], spec.params)
    expected = ORACLE.collective(spec.collective, [widen(s) for s in shards], **spec.params)[rank]
    bound = compare.collective_bound(spec.collective, spec.params, widen(shards), args.dtype)
    allowed = compare.allowed_error(expected, args.dtype, None if bound is None else np.broadcast_to(
        bound, (world, *expected.shape))[rank])
    result = compare.compare(expected, out, args.dtype, allowed, out.dtype.name)
    print(json.dumps({"spec": spec.name, "case": example.name, "rank": rank, "world_size": world,
                      "status": "pass" if result.ok else "fail", "message": result.summary(),
                      "output": out.tolist() if out.size <= 16 else list(out.shape)}), flush=True)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
