"""A stand-in for grep_ast: the repository map is not used while recording."""


class TreeContext:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("grep_ast is not installed")


def filename_to_lang(filename):
    return None
