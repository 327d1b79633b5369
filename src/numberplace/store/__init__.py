"""Kept data: results as plain records, the database, the puzzle bank."""
