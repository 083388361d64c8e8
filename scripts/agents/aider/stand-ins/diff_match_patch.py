class diff_match_patch:
    """Used by aider's fuzzy edit search only; not reached while recording."""

    def __getattr__(self, name):
        raise RuntimeError("diff_match_patch is not installed")
