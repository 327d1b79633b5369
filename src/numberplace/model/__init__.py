"""The puzzle model: grid shapes and their symmetries, alphabets, puzzles."""
