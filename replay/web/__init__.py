"""The web replay viewer's static files (HTML, CSS, JavaScript modules, and the vendored
Swagger UI for /docs), served by ``replay.api.pages``. No build step: the pages call the public
HTTP API and nothing else."""
