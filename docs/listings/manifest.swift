// swift-tools-version: 6.1
// Context "manifest": a Package.swift around a listing that shows some of its arguments
// (`dependencies: […], targets: […]`); the listing replaces the marker line.
import PackageDescription

let package = Package(
    name: "App",
    // LISTING
)
