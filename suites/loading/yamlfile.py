"""Reading a YAML file safely, for specs and shipped differences: one line for every problem.

yaml.safe_load constructs no Python objects, but a document can still be hostile: an alias bomb
("billion laughs": nine aliases of nine aliases ... are a few lines that expand to 9^9 nodes), or
nesting deep enough to overflow PyYAML's recursive composer. Both are refused before anything
walks the document, with the file and line, as SpecError.
"""
import yaml

MAX_BYTES = 2_000_000
MAX_NESTING = 64
MAX_EXPANDED = 1_000_000


class SpecError(Exception):
    """A spec that cannot be run; str() is one line: file:line: key: problem."""


def read(path) -> tuple:
    """(node, data) of the YAML file at `path`, or a SpecError of one line."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: cannot read: {exc}") from None
    return parse(text, path)


def parse(text: str, path) -> tuple:
    """(node, data) of a YAML file's text, or a SpecError of one line: too large, too deep,
    aliases that expand too far, or invalid YAML at its line."""
    if len(text) > MAX_BYTES:
        raise SpecError(f"{path}:1: (top level): larger than {MAX_BYTES:,} bytes")
    try:
        return _compose(text, path)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise SpecError(f"{path}:{line}: invalid YAML: {problem}") from None


def _compose(text: str, path) -> tuple:
    """(node, data): the document's depth checked, composed once, its expansion checked, then
    constructed from the node (what yaml.safe_load does, without parsing twice)."""
    _check_nesting(text, path)
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        _check_expansion(node, path)
        _check_duplicate_keys(node, path)
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def _check_duplicate_keys(root, path) -> None:
    """Refuse a mapping that names a key twice: YAML's loader keeps the later silently, so a
    difference or an example written twice would vanish without a word."""
    seen, stack = set(), [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen or not isinstance(node, yaml.CollectionNode):
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys = set()
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else None
                if name is not None and name != "<<" and name in keys:
                    raise SpecError(f"{path}:{key.start_mark.line + 1}: {name!r} appears twice in one mapping (the "
                                    "later would replace the earlier)")
                keys.add(name)
                stack += [key, value]
        else:
            stack += node.value


def _check_nesting(text: str, path) -> None:
    """Refuse a document nested deeper than MAX_NESTING (PyYAML's composer recurses once per
    level), at the first level too deep, from the parser's event stream: iterative, and LibYAML's
    where PyYAML has it (milliseconds where PyYAML's own parser takes a quarter of a second on
    5000 nested brackets). A document that does not parse is left to the composer, whose message
    names the problem."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_NESTING:
                    raise SpecError(f"{path}:{event.start_mark.line + 1}: nested deeper than {MAX_NESTING} levels")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return


def _check_expansion(root, path) -> None:
    """Refuse aliases that refer to themselves, or that expand the document past MAX_EXPANDED
    nodes or MAX_NESTING levels: the node graph is walked once (an alias is a shared node),
    each node's expanded size and depth computed from its children's."""
    size, depth, open_nodes = {}, {}, set()
    stack = [root] if root is not None else []
    while stack:
        node = stack[-1]
        children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) else \
            list(node.value) if isinstance(node, yaml.SequenceNode) else []
        pending = [c for c in children if id(c) not in size]
        if any(id(c) in open_nodes for c in pending):
            raise SpecError(f"{path}:{node.start_mark.line + 1}: an alias refers to the node that contains it")
        if pending:
            open_nodes.add(id(node))
            stack += pending
            continue
        stack.pop()
        open_nodes.discard(id(node))
        size[id(node)] = 1 + sum(size[id(c)] for c in children)
        depth[id(node)] = 1 + max((depth[id(c)] for c in children), default=0)
        if size[id(node)] > MAX_EXPANDED or depth[id(node)] > MAX_NESTING:
            raise SpecError(f"{path}:{node.start_mark.line + 1}: this node's aliases expand to more than "
                            f"{MAX_EXPANDED:,} nodes or {MAX_NESTING} levels")


def line(node, keys) -> int:
    """1-based line of the YAML node at `keys` (the deepest that exists)."""
    for key in keys:
        child = None
        if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            child = node.value[key]
        elif isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if k.value == key), None)
        if child is None:
            break
        node = child
    return node.start_mark.line + 1 if node is not None else 1


def where(path, node, keys) -> str:
    key = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
    return f"{path}:{line(node, keys)}: {key or '(top level)'}"
