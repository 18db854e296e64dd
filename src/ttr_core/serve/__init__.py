"""``ttr serve``: a person plays against the built-in bots in the browser (docs/serve.md).

A small web app on the public API of ttr-core: :mod:`ttr_core.serve.games`
keeps the games (bounded, one lock per game, each held by a seat token) and
tells the person only what their seat may see; :mod:`ttr_core.serve.saved`
keeps them across restarts in a SQLite file; :mod:`ttr_core.serve.app` is
the Starlette app around it, which refuses requests of other web sites;
:mod:`ttr_core.cli.serve` is the ``ttr serve`` command. The app needs the
``serve`` extra (Starlette and uvicorn); importing this package, ``games``,
``saved`` or ``command`` does not import them.
"""
