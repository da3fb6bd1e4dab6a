import Foundation
import Persist

extension PredicateFuzzing {
    /// ``Mode/valueDecoding``: what decodes re-encodes canonically. The input's own bytes may
    /// differ from the re-encoding only where the format accepts several forms (NaN payloads).
    static func checkDecoding(_ bytes: [UInt8], into findings: inout [String]) {
        guard let value = try? BinaryValueCoding.decode(bytes) else { return }
        let encoded = BinaryValueCoding.encode(value)
        do {
            let decoded = try BinaryValueCoding.decode(encoded)
            if decoded != value {
                findings.append("\(bytes) decodes to \(value), which re-encodes to \(encoded), which decodes to \(decoded)")
            }
            if BinaryValueCoding.encode(decoded) != encoded {
                findings.append("\(bytes) decodes to \(value), whose encoding \(encoded) does not re-encode to itself")
            }
        } catch {
            findings.append("\(bytes) decodes to \(value), which re-encodes to \(encoded), which does not decode: \(error)")
        }
    }
}
