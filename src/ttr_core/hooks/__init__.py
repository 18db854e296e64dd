"""The plugin interface, what a variant author reads: the hook
specifications (:mod:`~ttr_core.hooks.specs`), the checks every hook result
passes (:mod:`~ttr_core.hooks.checks`), how the engine calls the hooks
(:mod:`~ttr_core.hooks.calls`), the plugins found and registered
(:mod:`~ttr_core.hooks.manager`) and a game's rule set resolved from them
(:mod:`~ttr_core.hooks.resolve`)."""
