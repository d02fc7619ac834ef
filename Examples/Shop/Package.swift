// swift-tools-version: 6.1
// An app's own catalog through the SwiftErrCatalogPlugin: ShopErrors holds catalog.json (two modules,
// cart and payment, and a base tier of its own), and the plugin generates its module enums, its base
// codes and the catalog at build time. It depends on the SwiftErr product and the plugin only.
import PackageDescription

let package = Package(
    name: "Shop",
    dependencies: [
        .package(name: "SwiftErr", path: "../..")
    ],
    targets: [
        .target(
            name: "ShopErrors",
            dependencies: [.product(name: "SwiftErr", package: "SwiftErr")],
            plugins: [.plugin(name: "SwiftErrCatalogPlugin", package: "SwiftErr")]
        ),
        .executableTarget(name: "shop-demo", dependencies: ["ShopErrors"]),
        .testTarget(name: "ShopErrorsTests", dependencies: ["ShopErrors"]),
    ],
    swiftLanguageModes: [.v6]
)
