class Query:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("tree-sitter is not installed")
