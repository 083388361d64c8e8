USING_TSL_PACK = False


def get_language(name):
    raise RuntimeError("tree-sitter is not installed")


def get_parser(name):
    raise RuntimeError("tree-sitter is not installed")
