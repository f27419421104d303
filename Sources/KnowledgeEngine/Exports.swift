@_exported import ContinuityKit
