"""The game's values: the board, the actions, the state, the rule set of a
configuration, score sheets, player views, what variants declare, and the
pure helpers every layer needs (payments, connectivity). Nothing here calls
a plugin or knows a rule: every layer above speaks these values."""
