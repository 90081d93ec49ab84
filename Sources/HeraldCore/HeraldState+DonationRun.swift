import FoundationEssentials
import HeraldProtocol

/// A restart's run of logged donations (``DonationRun``): each donation's turn decided by
/// the rules of ``donate(_:caller:now:retry:)`` as it was decided then, the interactions
/// that survive the run stored together at its end.
extension HeraldState {
    /// The part of `donate` that needs the state, for a donation the change log recorded,
    /// at its turn in `run`: refused as it was refused then (its app's Focus authorization,
    /// the room for an app), a retry or a conflict changing nothing, and otherwise held in
    /// `run` with what the limits evict past it — one `run` holds never stored, only
    /// counted and forgotten — added to `released`.
    ///
    /// `hash` is the key's ``DonationRun/keyHash(uid:app:identifier:)``, when worked out
    /// before the lock.
    ///
    /// Where the store's own path must decide — the total limit choosing among several
    /// uids' shares — `run` is stored first and the
    /// donation goes one at a time. Call ``storeDonationRun(_:parallel:)`` before
    /// anything else reads or changes the state.
    package mutating func donate(
        _ donation: consuming PreparedDonation, caller: Caller, now: Date, hash: Int? = nil, in run: inout DonationRun,
        releasing released: inout ReleasedInteractions
    ) {
        let uid = caller.uid
        // As DonationRules.validateAuthorization, without decoding a record that has no
        // donation metadata.
        guard !donation.asksToNotifyRecipientAnyway || settings.authorization(uid: uid, app: donation.app) == .authorized
        else { return }
        let knownApp = run.appID(of: donation.app, in: interactions.apps)
        if !(knownApp.map { interactions.holds(uid: uid, app: $0, with: run) } ?? false) {
            guard (try? requireRoomForApp(donation.app, holding: interactions.appCount(of: uid, with: run))) != nil else { return }
        }
        let identifier = donation.identifier
        let key = InteractionKey(uid: uid, app: knownApp ?? interactions.appID(interning: donation.app), identifier: identifier)
        // A retry, or a conflict refused: nothing changes.
        let hash = hash ?? DonationRun.keyHash(uid: uid, app: donation.app, identifier: identifier)
        guard !interactions.contains(key, hash: hash, orIn: run) else { return }

        let perUIDLimit = max(configuration.maxInteractionsPerUID, 0)
        let limit = max(configuration.maxInteractions, 0)
        let uidCount = interactions.count(of: uid, with: run) + 1
        let total = interactions.count + run.count + 1 - max(uidCount - perUIDLimit, 0)
        if total > limit, !interactions.holdsOnly(uid, with: run) {
            // Whose oldest the total limit evicts is the store's choice among the shares.
            storeDonationRun(&run, parallel: nil)
            _ = try? donate(donation, caller: caller, now: now, releasing: &released)
            return
        }
        interactions.hold(
            donation.record, at: key, hash: hash, isIncomingCall: donation.isIncomingCall, donatedAt: now, in: &run)
        // As evictBeyondLimits(donor:releasing:): the uid's own oldest, then, the uid
        // holding everything, its oldest again for the total.
        while interactions.count(of: uid, with: run) > perUIDLimit, let evicted = interactions.removeOldest(of: uid, with: &run) {
            fairShares.evictedAtUIDLimit += 1
            released.add(evicted)
        }
        while interactions.count + run.count > limit, let evicted = interactions.removeOldest(of: uid, with: &run) {
            fairShares.evictedAtLimit += 1
            released.add(evicted)
        }
    }

    /// Stores what `run` holds and empties it (``InteractionStore/storeRun(_:parallel:)``).
    package mutating func storeDonationRun(_ run: inout DonationRun, parallel: ParallelWork?) {
        interactions.storeRun(&run, parallel: parallel)
    }
}
