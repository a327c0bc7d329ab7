"""Identity of this build; the version is checked against package.json by a test."""
# __pragma__('tconv')
NAME = 'Hermes Agent'
VERSION = '0.1.0'
