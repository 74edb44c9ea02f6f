// The parts of UIKit that ported Core Animation code meets and Strata does not provide (yet), and
// the places where Strata's UIKit behaves differently, so the gap is visible (STYLE.md). Strata's
// UIKit is the part of UIKit that shapes layer trees: views as layer owners, view controllers,
// colours, images, labels, block animations, image contexts. There is no event loop, screen or
// window server: user input is played by scripts at scene times.
//
// Not provided (ported files that use them do not compile; see Tests/PortCorpusTests)
// - UITableView, UICollectionView and their cells, controllers and layouts; UITabBarController,
//   UINavigationController; UIApplication and its delegate; UIButton, UISwitch, UITextField and
//   other controls; Auto Layout (`NSLayoutConstraint`); storyboards and nibs.
// - Gesture recognizers with target/action: `#selector` needs the Objective-C runtime.
// - `DispatchQueue.main.async`/`asyncAfter` do not run at scene times (there is no run loop in
//   a render); schedule work with `scene.at(t)` instead.
// - ImageIO (`CGImageSourceCreateWithURL` …), `CGFont`, Core Foundation types (`CFString`,
//   `CFURL`, `CFDictionary`).
//
// Strata's choices
// - `UIScreen.main` is a 390 × 844-point screen at scale 1; both are settable (UIKit's are
//   read-only) so scripts choose the output they lay out for.
// - A view controller's default view is white and screen-sized (as a storyboard scene's).
// - `UIView.transition(with:…)` fades for every transition option (flips and curls too).
// - Block animations of `position` and `bounds` are additive (as on iOS 8 and later); other
//   properties start from the value on screen.
// - `UIImage(named:)` searches `UIImage.assetSearchPaths` (settable), not an app bundle.
// - `UITouch(location:in:)` makes a touch for scripts (UIKit has no public initializer).
import Foundation
