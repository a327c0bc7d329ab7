"""The doors of terminal CLIs with the review of what they propose (host/doors/service.py, host/doors/proposals.py,
ui/doors/proposals.py): a part loaded on first use (hermes/lazy_parts.py), opened by host/doors/late.py once activation
has returned. The status item and its commands stay in the main bundle (ui/doors/status.py)."""
# __pragma__('tconv')
from hermes.host.doors.service import register_doors
from hermes.host.doors.proposals import register_proposals
from hermes.ui.doors.proposals import register_proposal_ui
# __pragma__('skip')
from typing import TYPE_CHECKING, Optional
from hermes.contracts.services import Approval
from hermes.host.changes.log import ChangeLog
from hermes.host.changes.window_index import WindowIndex
from hermes.host.doors.diff_review import DiffReviews
from hermes.host.doors.service import DoorService
from hermes.host.log import Log
if TYPE_CHECKING:
    from vscode import ExtensionContext
# __pragma__('noskip')


def open_doors(context: 'ExtensionContext', log: 'Log', approver: 'Optional[Approval]',
               change_log: 'ChangeLog', reviews: 'DiffReviews',
               window_index: 'Optional[WindowIndex]' = None) -> 'DoorService':
    """The window's review of proposals and its doors, registered and started (not awaited: they listen soon after);
    `window_index`: the window's index of the workspace, which a connected CLI's spans of disk changes start from."""
    proposals = register_proposals(context, log, change_log, reviews)
    register_proposal_ui(context, proposals)
    doors = register_doors(context, log, proposals, approver, change_log, window_index)
    doors.start()
    return doors
