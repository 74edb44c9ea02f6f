@_exported import StrataCore
