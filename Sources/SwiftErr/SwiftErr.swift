// SwiftErr builds on SwiftErrCore (catalogs, module enums, classification); importing SwiftErr
// gives both.
@_exported import SwiftErrCore
