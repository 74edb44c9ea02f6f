// The parts of AVFoundation's playback API that Strata does not implement yet, so the gap is
// visible (as OpenCombine keeps `RemainingCombineInterface.swift`). Nothing here compiles into
// the library; each line names the API and what using it would need.
//
// AVPlayerItem
//   - init(asset:), AVAsset / AVURLAsset / AVComposition (editing timelines): items open URLs only.
//   - reversePlaybackEndTime, seekableTimeRanges, loadedTimeRanges, tracks, audioMix,
//     videoComposition, audioTimePitchAlgorithm (audio at rates ≠ 1 is varispeed: the pitch moves).
//   - NotificationCenter notifications (AVPlayerItemDidPlayToEndTime, …): schedule a block at the
//     item's end instead (`scene.at(t)`).
// AVPlayer
//   - addPeriodicTimeObserver / addBoundaryTimeObserver: use `scene.at(t)`.
//   - setRate(_:time:atHostTime:), preroll, automaticallyWaitsToMinimizeStalling (no stalls offline),
//     allowsExternalPlayback, appliesMediaSelectionCriteriaAutomatically.
//   - Reverse playback shows the right frames but is silent, and decodes by seeking backwards
//     (slow on long GOPs).
// AVPlayerLayer
//   - pixelBufferAttributes, displayedReadyForDisplay notifications, AVSynchronizedLayer (item
//     time driven by layer time): player layers follow scene time.
// AVPlayerLooper
//   - Replicas of the template item (Strata wraps one item; same frames, one decoder).
//
// Strata-specific limits
//   - A player's audio is mixed from the first exported frame at which the player is in the
//     layer tree (or from the start with `scene.addAudio(player:)`).
//   - A failed item (missing or corrupt file) makes `Scene.renderFrame(at:)` and exports throw
//     its error; exports can show a placeholder instead (`ExportOptions.mediaFailure`).
