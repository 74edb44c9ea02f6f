@_exported import Foundation
@_exported import StrataCore
@_exported import StrataRender
@_exported import StrataMedia
@_exported import StrataUIKit
