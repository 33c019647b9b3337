class ActionError(ValueError):
    """A table or game action refused with a message for the player; nothing changed."""
