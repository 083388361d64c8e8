def get_pandoc_version():
    raise OSError("pandoc is not installed")


def download_pandoc(*args, **kwargs):
    raise OSError("pandoc cannot be downloaded here")


def convert_text(*args, **kwargs):
    raise OSError("pandoc is not installed")
