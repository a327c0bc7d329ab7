"""The doors of terminal CLIs (host/doors/service.py) opened once activation has returned: their code is a part loaded on
first use (ui/doors/front.py), so activation neither loads nor starts them. What reads them at start-up (the status
item, the walkthrough) holds this instead: nothing is connected until they open, and what listens to them is handed
on when they do. The first of `open()` (extension.py asks on the next tick) and a command that needs them opens
them."""
# __pragma__('tconv')
# __pragma__('skip')
from typing import TYPE_CHECKING, Any, Callable, List, Optional
from hermes.contracts.json import JsonObject
if TYPE_CHECKING:
    from hermes.host.doors.service import DoorService
# __pragma__('noskip')


class LateDoors:
    def __init__(self, open_doors: 'Callable[[], DoorService]') -> None:
        """`open_doors()` loads the doors' part, registers them and starts them; called once."""
        self.open_doors = open_doors
        self.doors = None  # type: Optional[DoorService]
        self.closed = False  # the window is closing: the doors are not opened any more
        self.listeners = []  # type: List[Callable[[], Any]]

    def open(self) -> 'Optional[DoorService]':
        """The doors, opened the first time (None once the window is closing before they were)."""
        if self.doors is None and not self.closed:
            doors = self.open_doors()
            self.doors = doors
            for listener in self.listeners:
                doors.on_change(listener)
        return self.doors

    def on_change(self, listener: 'Callable[[], Any]') -> None:
        self.listeners.append(listener)
        if self.doors is not None:
            self.doors.on_change(listener)

    def describe(self) -> 'List[JsonObject]':
        return [] if self.doors is None else self.doors.describe()

    def send_selection(self) -> int:
        doors = self.open()
        return 0 if doors is None else doors.send_selection()

    async def stop(self) -> None:
        """The window is closing: the doors close (their files first), or are never opened."""
        self.closed = True
        if self.doors is not None:
            await self.doors.stop()
