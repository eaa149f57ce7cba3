"""``ipsis serve``: run the HTTP API and the paste-in page (needs ``pip install 'ipsis[serve]'``)."""

from __future__ import annotations

import os

import click

from ipsis.cli._base import UsageFailure, error_boundary, main
from ipsis.serve.limits import ENV_CONFIG, Limits, ServeConfig
from ipsis.store.backend import is_url

DEFAULTS = Limits()
SERVER = ServeConfig()
MISSING_EXTRA = "ipsis serve needs Starlette and uvicorn; install them with: pip install 'ipsis[serve]'"


@main.command("serve")
@click.option(
    "--store",
    "store_dir",
    envvar="IPSIS_STORE",
    default=None,
    metavar="DIR|URL",
    help="Store folder or postgresql:// URL (env IPSIS_STORE).",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind; not loopback needs --tokens.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option(
    "--tokens",
    "tokens_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="File of 'TOKEN USER' lines (or a JSON object): each request is made as the token's user.",
)
@click.option("--max-body", type=click.IntRange(1), default=DEFAULTS.max_body_bytes, show_default=True, help="Bytes.")
@click.option("--max-records", type=click.IntRange(1), default=DEFAULTS.max_records, show_default=True)
@click.option("--max-quote", type=click.IntRange(1), default=DEFAULTS.max_quote_chars, show_default=True, help="Chars.")
@click.option("--timeout", type=click.FloatRange(0.1), default=DEFAULTS.max_seconds, show_default=True, help="Seconds.")
@click.option(
    "--cache", "cache_documents", type=click.IntRange(1), default=64, show_default=True, help="Documents kept."
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Host name served without --tokens besides localhost/127.0.0.1/[::1] (repeatable).",
)
@click.option(
    "--header-timeout", type=click.FloatRange(0.1), default=SERVER.header_timeout, show_default=True, help="Seconds."
)
@click.option(
    "--body-timeout", type=click.FloatRange(0.1), default=SERVER.body_timeout, show_default=True, help="Seconds."
)
@click.option(
    "--max-connections", type=click.IntRange(1), default=SERVER.max_connections, show_default=True, help="Per worker."
)
@click.option(
    "--max-buffered",
    type=click.IntRange(1),
    default=SERVER.max_buffered_bytes,
    show_default=True,
    help="Bytes all uploads in progress may hold together.",
)
def serve_cmd(
    store_dir: str | None,
    host: str,
    port: int,
    workers: int,
    tokens_file: str | None,
    max_body: int,
    max_records: int,
    max_quote: int,
    timeout: float,
    cache_documents: int,
    allow_hosts: tuple[str, ...],
    header_timeout: float,
    body_timeout: float,
    max_connections: int,
    max_buffered: int,
) -> None:
    """Serve the JSON API (/v1/...), /openapi.json and a paste-in page at /.

    Without --tokens the server only binds to loopback (127.0.0.1, ::1, localhost), answers only
    requests whose Host is a loopback name (or --allow-host), and shows only public stored
    sources; with it, every request needs 'Authorization: Bearer TOKEN' and sees only the sources
    its user may read. POST bodies must be application/json. Stalled clients are cut off after
    --header-timeout / --body-timeout; past --max-connections new ones get 503.

    \b
    Example:
      ipsis serve --store examples/demo-store --port 8765 --workers 4
    """
    try:
        import uvicorn

        from ipsis.serve.app import create_app  # noqa: F401
    except ImportError as exc:
        msg = f"{MISSING_EXTRA} ({exc.name} is missing)"
        raise UsageFailure(msg) from None
    from ipsis.serve.tokens import is_loopback, load_tokens

    with error_boundary():
        if tokens_file is not None:
            load_tokens(tokens_file)  # fail early, before binding
        elif not is_loopback(host):
            msg = (
                f"--host {host} is not a loopback address and --tokens is not set; anyone who can reach it "
                "could read your sources. Pass --tokens FILE, or keep --host 127.0.0.1"
            )
            raise UsageFailure(msg)
        if store_dir is not None:
            _check_store(store_dir)
        _check_port(host, port)
    limits = Limits(max_body_bytes=max_body, max_records=max_records, max_quote_chars=max_quote, max_seconds=timeout)
    config = ServeConfig(
        store_dir=(store_dir if is_url(store_dir) else os.path.abspath(store_dir)) if store_dir else None,
        tokens_file=os.path.abspath(tokens_file) if tokens_file else None,
        limits=limits,
        cache_documents=cache_documents,
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        max_connections=max_connections,
        max_buffered_bytes=max_buffered,
        allowed_hosts=tuple(allow_hosts),
    )
    os.environ[ENV_CONFIG] = config.to_env()
    click.echo(f"ipsis serve: http://{host}:{port}/ ({workers} worker(s)); Ctrl+C stops", err=True)
    uvicorn.run(
        "ipsis.serve.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        server_header=False,
        http="ipsis.serve.protocol:GuardedH11Protocol",
    )


def _check_store(store_dir: str) -> None:
    """Open the store once so that a wrong --store fails now, with the store's message."""
    from ipsis.store import Store

    Store.open(store_dir).close()


def _check_port(host: str, port: int) -> None:
    """Bind the address once, as uvicorn will, so that a port in use fails now with a clear message."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        msg = f"--host {host}: cannot resolve it ({exc.strerror}); pass an address such as 127.0.0.1"
        raise UsageFailure(msg) from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(addr)
        except OSError as exc:
            msg = (
                f"cannot listen on {host}:{port}: {exc.strerror or exc} (another server, perhaps another "
                "ipsis serve, holds it); stop it or pass another --port"
            )
            raise UsageFailure(msg) from None
