"""host/doors/late.py: the doors opened once, on the first ask; listeners handed on; a closing window never opens
them."""
import asyncio

from hermes.host.doors.late import LateDoors


class FakeDoors:
    def __init__(self):
        self.listeners = []
        self.connected = [{'client': 'Claude Code'}]
        self.stopped = 0

    def on_change(self, listener):
        self.listeners.append(listener)

    def describe(self):
        return self.connected

    def send_selection(self):
        return 1

    async def stop(self):
        self.stopped += 1


def late():
    opened = []

    def open_doors():
        opened.append(FakeDoors())
        return opened[-1]
    return LateDoors(open_doors), opened


def test_nothing_is_connected_until_the_doors_open_and_a_listener_registered_before_is_handed_on():
    doors, opened = late()
    heard = []
    doors.on_change(lambda: heard.append(1))
    assert doors.describe() == []
    assert opened == []
    service = doors.open()
    assert opened == [service]
    assert doors.open() is service
    assert len(opened) == 1
    assert doors.describe() == [{'client': 'Claude Code'}]
    service.listeners[0]()
    assert heard == [1]
    doors.on_change(lambda: heard.append(2))
    assert len(service.listeners) == 2


def test_send_selection_opens_the_doors_when_they_are_not_yet():
    doors, opened = late()
    assert doors.send_selection() == 1
    assert len(opened) == 1


def test_a_window_closing_first_never_opens_them_and_one_that_opened_them_stops_them():
    doors, opened = late()
    asyncio.run(doors.stop())
    assert doors.open() is None
    assert doors.send_selection() == 0
    assert opened == []
    doors, opened = late()
    service = doors.open()
    asyncio.run(doors.stop())
    assert service.stopped == 1
