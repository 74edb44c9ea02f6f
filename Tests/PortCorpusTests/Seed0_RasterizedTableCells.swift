// Seed 000 §3.3 shouldRasterize: rasterising table view cells whose labels have a text shadow
// (offscreen rendering made cheap by caching).
import Strata

class RasterizedCellsViewController: UITableViewController {
    // Port note (completion): registration and row count are not in the note.
    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        return 20
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        // dequeue cell
        let cell = self.tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        // ... (elided in the note; completion: give the row a text)
        cell.textLabel?.text = "Row \(indexPath.row)"
        // set text shadow
        cell.textLabel?.backgroundColor = UIColor.clear
        cell.textLabel?.layer.shadowOffset = CGSize(width: 0, height: 2)
        cell.textLabel?.layer.shadowOpacity = 0.5
        // rasterize
        cell.layer.shouldRasterize = true
        cell.layer.rasterizationScale = UIScreen.main.scale
        return cell
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0RasterizedTableCellsScene() -> Scene {
    let vc = RasterizedCellsViewController()
    let root = vc.view.layer
    vc.tableView.layoutIfNeeded()  // let the table create its visible cells
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
