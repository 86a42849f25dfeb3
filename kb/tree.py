"""The category tree as the browser shows it: each node with its entries and a count that
includes every entry below it."""

from dataclasses import dataclass, field


@dataclass
class Node:
    category: object
    children: list = field(default_factory=list)
    entries: list = field(default_factory=list)
    count: int = 0


def category_tree(categories, entries):
    """Build the forest from two flat querysets in two queries, whatever the depth."""
    nodes = {category.pk: Node(category) for category in categories}
    for entry in entries.only("slug", "code", "title", "summary", "status", "category_id"):
        nodes[entry.category_id].entries.append(entry)
    roots = []
    for node in nodes.values():
        parent = nodes.get(node.category.parent_id)
        (parent.children if parent else roots).append(node)
    for root in roots:
        _count(root)
    return roots


def _count(node):
    node.count = len(node.entries) + sum(_count(child) for child in node.children)
    return node.count


def find_node(roots, category):
    stack = list(roots)
    while stack:
        node = stack.pop()
        if node.category.pk == category.pk:
            return node
        stack.extend(node.children)
    return None
