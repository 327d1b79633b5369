"""The names of the text formats, in a module of their own: the command line offers them
without loading the readers (see :mod:`numberplace.formats`)."""

FORMAT_NAMES: tuple[str, ...] = ("line", "sdo", "grid", "sdk", "ss", "pencil", "sukaku",
                                 "samurai", "samurai-grid", "jigsaw", "json", "kakuro",
                                 "janko", "puzzlekit", "killer")
