FILE = {"bash": "_shtab_compgen_files", "zsh": "_files", "tcsh": "f"}
DIRECTORY = {"bash": "_shtab_compgen_dirs", "zsh": "_files -/", "tcsh": "d"}
SUPPORTED_SHELLS = ["bash", "zsh", "tcsh"]


def complete(parser, shell="bash", **kwargs):
    return ""


def add_argument_to(parser, *args, **kwargs):
    return parser
