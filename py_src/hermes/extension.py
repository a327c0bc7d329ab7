"""Entry point: activate() is a short list of register calls; deactivate() has nothing left to do,
because every registration is a disposable in `context.subscriptions`."""
from hermes.js import now_ms
from hermes.version import NAME, VERSION
from hermes.host.log import register_log
from hermes.ui.status_bar import register_status_bar
from hermes.ui.commands import register_status_command


def activate(context):
    started = now_ms()
    log = register_log(context)
    register_status_bar(context)
    register_status_command(context, log, lambda: NAME + ' ' + VERSION + ': the MCP server is not running yet.')
    elapsed = round(now_ms() - started)
    log.info(NAME + ' ' + VERSION + ' activated in ' + str(elapsed) + ' ms')
    return {'version': VERSION}


def deactivate():
    return None
