"""Who changed a stored conversation when the side panel did: the panel ignores its own changes and re-renders for a
chat session's. Apart from ui/panel/controller.py's modules, a part loaded on first use, so that ui/panel/view.py names
it without loading the controller."""
# __pragma__('tconv')

PANEL_ORIGIN = 'panel'
