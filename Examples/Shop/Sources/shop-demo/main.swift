// shop-demo: classifies the codes given on the command line (or a few of each kind) with the shop's
// own catalog, which the SwiftErrCatalogPlugin generated from ShopErrors/catalog.json.
//
//   swift run shop-demo                 0 401 20001 20999 30002 11001
//   swift run shop-demo --zh 401 30001

import ShopErrors

// Install the app's catalog once, at start-up, before the first classification.
try ShopCatalog.install()

var arguments = CommandLine.arguments.dropFirst()
var language = Language.english
if arguments.first == "--zh" {
    language = .simplifiedChinese
    arguments = arguments.dropFirst()
}
var codes: [Int64] = []
for argument in arguments {
    if let code = Int64(argument) {
        codes.append(code)
    } else {
        print("not a 64-bit integer code: \(argument)")
    }
}
for code in codes.isEmpty ? [0, 401, 20001, 20999, 30002, 11001] : codes {
    print(describeShopCode(code, language: language))
}

// The typed view of one module: every code gets exactly one outcome.
switch CartCode.classify(20001) {
case .module(.itemOutOfStock): print("cart: item out of stock")
case .base(.sessionExpired): print("cart: sign in again")
default: print("cart: something else")
}
