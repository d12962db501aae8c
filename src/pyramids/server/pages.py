"""The server's HTML pages: files of the package's ``static/`` directory, revalidated on
every load (``Cache-Control: no-cache``) so that a new version shows at once."""

from __future__ import annotations

from pathlib import Path

from fastapi.responses import FileResponse, JSONResponse, Response

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The pages, scripts, styles and data the browser loads."""


def static_page(name: str) -> Response:
    """The page ``name`` of the static directory, or 404 ``not_found`` when it is not
    installed."""
    path = STATIC_DIR / name
    if not path.is_file():
        body = {"error": {"code": "not_found", "message": f"the page {name} is not installed"}}
        return JSONResponse(body, status_code=404)
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})
