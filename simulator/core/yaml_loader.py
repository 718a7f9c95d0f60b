"""The one YAML loader of the project: safe, bounded in what a document expands to, and
refusing a key written twice.

Every YAML file the project reads (run, league and exploit configs, the agent's and the
pre-flop expert's parameter files, ``holdem acpc``'s ``--params``) and every ``--set`` value
goes through :func:`load_yaml` (by way of :func:`simulator.core.validation.read_yaml`).

**Aliases.** An alias (``*name``) stands for a copy of the node it names. The loader shares
one object between them, but whatever copies the data later (pydantic's ``model_dump``, a
deep copy) makes the copies, so nine levels of nine aliases (the "billion laughs") become
387 million values from a file of a kilobyte. Aliases are allowed, since a few of them keep a
config short, but the document with every alias expanded may hold at most
:data:`MAX_NODES` nodes (the largest settings file shipped holds a few hundred), and an
alias inside the node it names (which would expand forever) is refused. Both are counted on
the composed nodes before anything is built, so a refused document costs no more memory
than its text.

**Duplicate keys.** YAML says a mapping's keys are unique; PyYAML keeps the last one, so
``hands: 10`` and later ``hands: 20`` would quietly run 20. A key written twice in one
mapping is refused with both lines. Keys brought in by a merge (``<<: *base``) are not
written twice: a key written beside the merge overrides it, as YAML's merge says.

>>> load_yaml("base: &b {x: 1, y: 2}\\nmine: {<<: *b, y: 3}\\n")
{'base': {'x': 1, 'y': 2}, 'mine': {'x': 1, 'y': 3}}
>>> load_yaml("hands: 10\\nseed: 1\\nhands: 20\\n")
Traceback (most recent call last):
...
simulator.core.yaml_loader.YamlRefused: duplicate key 'hands' at lines 1 and 3
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

MAX_NODES = 100_000
"""The most nodes a document may hold with its aliases expanded."""
MERGE_TAG = "tag:yaml.org,2002:merge"


class YamlRefused(yaml.YAMLError):
    """A document that is valid YAML but refused: too big once expanded, or a key twice."""


class BoundedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that checks each mapping's keys as it is composed and the size
    of the whole document before any of it is constructed."""

    def compose_mapping_node(self, anchor: str | None) -> MappingNode:
        node: MappingNode = super().compose_mapping_node(anchor)
        _refuse_duplicates(self, node)
        return node

    def construct_document(self, node: Node) -> Any:
        count = expanded_size(node)
        if count > MAX_NODES:
            raise YamlRefused(f"its aliases expand to more than {MAX_NODES} values (a settings "
                              f"file holds a few hundred); write the values out or use fewer "
                              f"aliases")
        return super().construct_document(node)


def _key_value(loader: BoundedLoader, node: Node) -> Any:
    """A scalar key's value as it will be built (``yes`` and ``true`` are the same key);
    None for keys that are not scalars (PyYAML refuses the unhashable ones itself)."""
    if not isinstance(node, ScalarNode) or node.tag == MERGE_TAG:
        return None
    build = loader.yaml_constructors.get(node.tag)
    try:
        value = build(loader, node) if build is not None else node.value
        hash(value)
    except (yaml.YAMLError, TypeError, ValueError):
        return None  # the constructor reports it, with its own words, when it builds it
    return (type(value), value)


def _refuse_duplicates(loader: BoundedLoader, node: MappingNode) -> None:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = _key_value(loader, key_node)
        if key is None:
            continue
        line = key_node.start_mark.line + 1
        if key in seen:
            raise YamlRefused(f"duplicate key {key[1]!r} at lines {seen[key]} and {line}")
        seen[key] = line


def expanded_size(root: Node) -> int:
    """The nodes of the document with every alias expanded, counted up to just past
    :data:`MAX_NODES` (each distinct node once, however often it is named); ``YamlRefused``
    for an alias inside the node it names."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in open_nodes:
            raise YamlRefused(f"the node at line {node.start_mark.line + 1} holds an alias of "
                              f"itself, which would expand without end")
        total = 1
        if isinstance(node, (SequenceNode, MappingNode)):
            open_nodes.add(key)
            children = (node.value if isinstance(node, SequenceNode)
                        else [part for pair in node.value for part in pair])
            for child in children:
                total += size(child)
                if total > MAX_NODES:
                    break  # the caller refuses it; counting on would only cost time
            open_nodes.discard(key)
        sizes[key] = total
        return total

    return size(root)


def load_yaml(text: str) -> Any:
    """The data of one YAML document, through :class:`BoundedLoader`; ``yaml.YAMLError``
    (``YamlRefused`` for the bounds) for anything wrong with it."""
    loader = BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
