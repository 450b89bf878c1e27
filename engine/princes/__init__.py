"""The Princes of Florence: its rules, state, events and commands."""
