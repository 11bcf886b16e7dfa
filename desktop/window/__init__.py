"""The main window: its assembly, layout, menus and actions, shortcuts and dialogs."""
