"""The browser window onto the framework: ``holdem serve`` (play, replay, reports) and
``holdem report`` (a run's pages as one offline HTML file). Needs the ``web`` extra
(starlette and uvicorn); the rest of the package never imports it."""
