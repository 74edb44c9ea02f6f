@_exported import StrataCore
@_exported import StrataRender
@_exported import StrataMedia
